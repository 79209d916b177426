"""ikviz app entry point: ``streamlit run app/Home.py``."""

from pathlib import Path

import figures
import prepare
import streamlit as st
import tour
import ui

# a file of ours, not a Material icon: Streamlit fetches those for the tab from fonts.gstatic.com, which a
# classroom offline cannot reach (two failed requests on every page) and which should not see every viewer
ICON = Path(__file__).with_name("static") / "favicon.png"
st.set_page_config(page_title="ikviz · Isolation Kernel", page_icon=str(ICON), layout="wide")


@st.cache_resource(show_spinner=False)
def _prepare_views_once():
    """Once per server: compute the default views and tour steps ahead if the store lacks them."""
    return prepare.start_in_background()


_prepare_views_once()

# The page scripts live in views/, not pages/: Streamlit still serves a pages/ directory's scripts
# on their own (no sidebar, no shared controls) when a link such as /classification names one.
pages = [
    st.Page("views/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("views/how_ik_is_built.py", title="How IK is built", icon=":material/animation:",
            url_path="how-ik-is-built"),
    st.Page("views/kernel_shapes.py", title="Kernel shapes", icon=":material/blur_on:", url_path="kernel-shapes"),
    st.Page("views/density.py", title="Density adaptivity", icon=":material/scatter_plot:", url_path="density"),
    st.Page("views/curse_of_dimensionality.py", title="Curse of dimensionality", icon=":material/view_in_ar:",
            url_path="curse-of-dimensionality"),
    st.Page("views/clustering.py", title="Clustering lab", icon=":material/bubble_chart:", url_path="clustering"),
    st.Page("views/classification.py", title="Classification lab", icon=":material/call_split:",
            url_path="classification"),
    st.Page("views/tsne.py", title="t-SNE", icon=":material/grain:", url_path="tsne"),
    st.Page("views/your_data.py", title="Your data", icon=":material/upload_file:", url_path="your-data"),
    st.Page("views/claims.py", title="Claims", icon=":material/fact_check:", url_path="claims"),
]
page = st.navigation(pages)

with st.sidebar:
    ui.control(st.toggle, "Presentation mode", ui.PRESENT_KEY, False, always=True, scoped=False,
               help="Hide the controls and explanations, for projecting in a lecture. "
                    "The setting is part of the link, so a shared link opens the same way.")
    tour.sidebar_links()
if ui.presenting():  # projected: the whole width for the figures (the arrow at the top left opens the sidebar)
    st.set_page_config(initial_sidebar_state="collapsed")

# a guided tour's step (?tour=...&step=...): its bar on top, its control pinned in presentation mode
tour.bar()
try:
    page.run()
    figures.finish_page()  # presentation mode: the pager over the page's figures, now that they are counted
    tour.finish()  # a tour step's number, from the result the page just drew
finally:  # also when a rerun cut this one short: no value is left over for the next run's link
    ui.write_link()  # the controls' values into the URL, in one message (a page that stops early: ui.stop)

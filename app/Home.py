"""ikviz app entry point: ``streamlit run app/Home.py``."""

import streamlit as st

import ui

st.set_page_config(page_title="ikviz · Isolation Kernel", page_icon=":material/forest:", layout="wide")

pages = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", default=True),
    st.Page("pages/kernel_shapes.py", title="Kernel shapes", icon=":material/blur_on:", url_path="kernel-shapes"),
]
page = st.navigation(pages)

with st.sidebar:
    ui.control(st.toggle, "Presentation mode", ui.PRESENT_KEY, False, always=True,
               help="Hide the controls and explanations, for projecting in a lecture. "
                    "The setting is part of the link, so a shared link opens the same way.")

page.run()

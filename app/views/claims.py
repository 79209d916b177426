"""Claims: every claim of the four papers, the paper's number, ikviz's number under the paper's protocol, a verdict.

The table (``claims_table``) shows every row at once and fills in as checks finish. A row's link opens the result
its number comes from: the page's view at the row's settings, or, where no page's view computes it,
``claims?reproduction=NAME&size=quick``: this page drawing that reproduction's figures and rows.
"""

import streamlit as st

import claims_table
import store
import ui
from ikviz import claims

PAPERS = {"all": "all four papers", "ting2018": "Ting et al. 2018 (IK, SVM)",
          "ting2021": "Ting et al. 2021 (curse of dimensionality)", "lu2016": "Lu et al. 2016 (FOGD, NOGD)",
          "wang2017": "Wang et al. 2017 (RandLocal)"}


ui.page_header(
    "Claims",
    "Which claims of the four papers hold? One row per claim: the paper's statement and number (quoted with its "
    "table or figure), ikviz's number under the paper's protocol, the data, size and settings it ran, and a "
    "verdict computed from the numbers by five rules (`ikviz.verdicts`): **only the paper's own settings "
    "decide** (others are shown in *shown, not counted*); a claim of **several parts holds only if every part "
    "does** (*why* names the part that fails); **faster, lower, beats** are tested in that direction; where the "
    "paper leaves out a detail that decides the outcome the verdict is **protocol unspecified**, with the result "
    "under each reading; a timing within its repeats' spread of a tie is **too close to call on this machine** (never "
    "holds); a claim on data not obtainable here is **data not available here**, never judged on a "
    "stand-in. **holds**: the paper's direction, at least half its size; **holds, smaller**: less. Rows come "
    "from the reproductions themselves (`ikviz reproduce claims` writes the same rows as JSON); *size* says "
    "whether a number is the quick size or the full (paper) size; *its result* opens the very result the number "
    "comes from, at the row's settings.",
    figures=False,
)

detail = st.query_params.get(claims.REPRODUCTION_KEY)
if detail:
    claims_table.one_reproduction(detail, st.query_params.get(claims.SIZE_KEY, "quick") != "full")
    st.page_link("views/claims.py", label="Every claim", icon=":material/arrow_back:")
    st.stop()

with st.sidebar:
    st.header("Claims")
    paper = ui.control(st.radio, "paper", "paper", "all", options=list(PAPERS), format_func=PAPERS.get)

names = [n for n in claims.reproductions() if paper == "all" or any(c.paper == paper for c in claims.claims(n))]
done = claims_table.live(names, paper)

if not ui.presenting():
    full_size = [n for n in names if done[n] and any(not r.quick for r in done[n])]
    st.subheader("Run a reproduction at full size")
    st.markdown("The table uses quick sizes so that it fills in soon, and full-size numbers where they exist "
                "(*size* says which). At full size a reproduction follows the paper's sizes where this machine "
                "allows (each says which in `ikviz reproduce --list`); it can take minutes, shows its progress, "
                "and replaces its rows above for every visitor once done.")
    left, right = st.columns([3, 1])
    choice = left.selectbox("reproduction", names, key="claims_full",
                            format_func=lambda n: f"{n}" + (" (done at full size)" if n in full_size else ""))
    if right.button("Run at full size", key="claims_full_run", disabled=choice in full_size):
        with ui.guarded(f"the {choice} reproduction at full size"):
            store.compute(claims.check_reproduction, choice, False)
            st.rerun()

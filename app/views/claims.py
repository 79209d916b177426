"""Claims: every claim of the four papers, the paper's number, ikviz's number under the paper's protocol, a verdict."""

import streamlit as st

import store
import ui
from ikviz import claims

PAPERS = {"all": "all four papers", "ting2018": "Ting et al. 2018 (IK, SVM)",
          "ting2021": "Ting et al. 2021 (curse of dimensionality)", "lu2016": "Lu et al. 2016 (FOGD, NOGD)",
          "wang2017": "Wang et al. 2017 (RandLocal)"}
#: a pale background per verdict, so the table reads at a glance (text stays the verdict itself)
SHADE = {"holds": "#d9f2d9", "holds, smaller": "#fff2cc", "protocol unspecified": "#dde7f7",
         "does not reproduce": "#f8d7d7", "data not available here": "#eeeeee"}

ui.page_header(
    "Claims",
    "Which claims of the four papers hold? One row per claim: the paper's statement and number (quoted with its "
    "table or figure), ikviz's number under the paper's protocol, the data, size and settings it ran, and a "
    "verdict computed from the numbers by five rules (`ikviz.verdicts`): **only the paper's own settings "
    "decide** (others are shown in *shown, not counted*); a claim of **several parts holds only if every part "
    "does** (*why* names the part that fails); **faster, lower, beats** are tested in that direction; where the "
    "paper leaves out a detail that decides the outcome the verdict is **protocol unspecified**, with the result "
    "under each reading; a claim on data not obtainable here is **data not available here**, never judged on a "
    "stand-in. **holds**: the paper's direction, at least half its size; **holds, smaller**: less. Rows come "
    "from the reproductions themselves (`ikviz reproduce claims` writes the same rows as JSON); *size* says "
    "whether a number is the quick size or the full (paper) size.",
    figures=False,
)

with st.sidebar:
    st.header("Claims")
    paper = ui.control(st.radio, "paper", "paper", "all", options=list(PAPERS), format_func=PAPERS.get)

names = [n for n in claims.reproductions() if paper == "all" or any(c.paper == paper for c in claims.claims(n))]
counts_box, table_box = st.container(), st.empty()


def show(rows) -> None:
    """The table so far: one row per checked claim, the verdict and the two numbers first."""
    import pandas as pd

    frame = pd.DataFrame(
        [{"paper": r.paper, "where": r.where, "verdict": r.verdict, "paper's number": r.paper_number,
          "ikviz": r.ikviz, "why": r.note, "data": r.data, "size": r.size, "settings": r.settings,
          "shown, not counted": r.shown, "what explains a difference": r.condition, "shown on": r.page,
          "the paper says": r.statement} for r in rows])
    styled = frame.style.map(lambda v: f"background-color: {SHADE.get(v, '')}", subset=["verdict"])
    table_box.dataframe(
        styled, hide_index=True, width="stretch", height=min(38 + 35 * len(rows), 800),
        column_config={"where": st.column_config.TextColumn(width="medium"),
                       "verdict": st.column_config.TextColumn(width=140),   # "does not reproduce" in full
                       "paper's number": st.column_config.TextColumn(width="medium"),
                       "ikviz": st.column_config.TextColumn(width="large"),
                       "why": st.column_config.TextColumn(width="large"),
                       "shown on": st.column_config.LinkColumn("shown on", display_text="open the page"),
                       "the paper says": st.column_config.TextColumn(width="large")})


rows, full_size = [], [n for n in names if store.get_store().peek(claims.check_reproduction, n, False)[0]]
# queue every reduced-size check at once, so the store's workers run them side by side on a first visit
queued = [store.get_store().submit(claims.check_reproduction, n, True) for n in names if n not in full_size]
try:
    for i, name in enumerate(names):
        with ui.guarded(f"the {name} reproduction"):
            rows += [r for r in store.compute(claims.check_reproduction, name, name not in full_size)
                     if paper == "all" or r.paper == paper]
        show(rows)
finally:
    for job in queued:
        store.get_store().release(job)
rows += claims.unavailable_rows(() if paper == "all" else (paper,))
show(rows)

with counts_box:
    cols = st.columns(len(claims.VERDICTS))
    for col, verdict in zip(cols, claims.VERDICTS):
        col.metric(verdict, sum(r.verdict == verdict for r in rows))

if not ui.presenting():
    st.subheader("Run a reproduction at full size")
    st.markdown("The table uses quick sizes so that it fills in soon. At full size a reproduction follows "
                "the paper's sizes where this machine allows (each says which in `ikviz reproduce --list`); it can "
                "take minutes, shows its progress, and replaces its rows above for every visitor once done.")
    left, right = st.columns([3, 1])
    choice = left.selectbox("reproduction", names, key="claims_full",
                            format_func=lambda n: f"{n}" + (" (done at full size)" if n in full_size else ""))
    if right.button("Run at full size", key="claims_full_run", disabled=choice in full_size):
        with ui.guarded(f"the {choice} reproduction at full size"):
            store.compute(claims.check_reproduction, choice, False)
            st.rerun()

"""Claims: every claim of the four papers, the paper's number, ikviz's number under the paper's protocol, a verdict.

Every row is on the page at once: those already computed (full size where ``ikviz reproduce claims --full`` left
its results, see ``claims.stored_rows``, or where the store holds a full-size check), the others filled in as their
reproductions finish. Those run as work prepared in the store (:meth:`ResultsStore.prepare`): a viewer who leaves
does not stop them, and one who comes back finds them finished or further on, never started again. A row's link
opens the result its number comes from: the page's view at the row's settings, or, where no page's view computes
it, ``claims?reproduction=NAME&size=quick``: this page drawing that reproduction's figures and rows.
"""

import time

import streamlit as st

import figures
import store
import ui
from ikviz import claims, reproduce

PAPERS = {"all": "all four papers", "ting2018": "Ting et al. 2018 (IK, SVM)",
          "ting2021": "Ting et al. 2021 (curse of dimensionality)", "lu2016": "Lu et al. 2016 (FOGD, NOGD)",
          "wang2017": "Wang et al. 2017 (RandLocal)"}
#: a pale background per verdict, so the table reads at a glance (text stays the verdict itself)
SHADE = {"holds": "#d9f2d9", "holds, smaller": "#fff2cc", "protocol unspecified": "#dde7f7",
         "does not reproduce": "#f8d7d7", "data not available here": "#eeeeee"}
#: the verdict cell of a row whose reproduction is still running
COMPUTING = "computing…"
#: the table's columns, the verdict and the two numbers first
COLUMNS = ("paper", "where", "verdict", "paper's number", "ikviz", "why", "data", "size", "settings",
           "shown, not counted", "what explains a difference", "its result", "explore", "the paper says")


def held_rows(name: str) -> list | None:
    """The rows of reproduction ``name`` already computed, full size first; None when none is."""
    stored = getattr(claims, "stored_rows", None)   # ``ikviz reproduce claims --full``'s results ($IKVIZ_FULL_RESULTS)
    rows = stored(name) if stored is not None else None
    if rows is not None:
        return rows
    for quick in (False, True):
        found, rows = store.get_store().peek(claims.check_reproduction, name, quick)
        if found:
            return rows
    return None


def waiting_rows(name: str, job) -> list[dict]:
    """Placeholder rows of ``name``'s claims while its reproduction runs: the paper's side, and how far it is."""
    done = f"{COMPUTING} {job.fraction:.0%}" if job is not None and job.fraction else COMPUTING
    return [{"paper": c.paper, "where": c.where, "verdict": COMPUTING, "paper's number": c.paper_number,
             "ikviz": done, "the paper says": c.statement} for c in claims.claims(name)]


def cells(r) -> dict:
    return {"paper": r.paper, "where": r.where, "verdict": r.verdict, "paper's number": r.paper_number,
            "ikviz": r.ikviz, "why": r.note, "data": r.data, "size": r.size, "settings": r.settings,
            "shown, not counted": r.shown, "what explains a difference": r.condition, "its result": r.page,
            "explore": r.explore or r.page, "the paper says": r.statement}


def show(box, lines: list[dict], counts_box) -> None:
    """The table so far (one line per claim, the verdict and the two numbers first) and the verdict counts."""
    import pandas as pd

    frame = pd.DataFrame(lines).reindex(columns=COLUMNS)
    styled = frame.fillna("").style.map(lambda v: f"background-color: {SHADE.get(v, '')}", subset=["verdict"])
    box.dataframe(
        styled, hide_index=True, width="stretch", height=min(38 + 35 * len(lines), 800),
        column_config={"where": st.column_config.TextColumn(width="medium"),
                       "verdict": st.column_config.TextColumn(width=140),   # "does not reproduce" in full
                       "paper's number": st.column_config.TextColumn(width="medium"),
                       "ikviz": st.column_config.TextColumn(width="large"),
                       "why": st.column_config.TextColumn(width="large"),
                       "its result": st.column_config.LinkColumn(
                           "its result", display_text="open", help="The page showing the very result the row's "
                                                                   "number comes from, at the row's settings"),
                       "explore": st.column_config.LinkColumn(
                           "explore", display_text="explore", help="The page to explore the idea at other settings"),
                       "the paper says": st.column_config.TextColumn(width="large")})
    with counts_box.container():
        cols = st.columns(len(claims.VERDICTS) + 1)
        for col, verdict in zip(cols, claims.VERDICTS):
            col.metric(verdict, sum(line["verdict"] == verdict for line in lines))
        cols[-1].metric(COMPUTING, sum(line["verdict"] == COMPUTING for line in lines))


def one_reproduction(name: str, quick: bool) -> None:
    """``claims?reproduction=NAME``: the figures of one reproduction and its rows, from the result the rows read."""
    if name not in reproduce.names():
        st.error(f"No reproduction {name!r}; the Claims table lists them all.")
        return
    entry = reproduce.get(name)
    size = "quick" if quick else "full"
    st.subheader(f"{name}: {entry.source} ({size} size)")
    st.caption(entry.description)
    rows = None if quick else (getattr(claims, "stored_rows", lambda _n: None)(name))
    with ui.guarded(f"the {name} reproduction"):
        if rows is None:
            rows = store.compute(claims.check_reproduction, name, quick)
        lines = [cells(r) for r in rows]
        show(st.empty(), lines, st.empty())
        params = entry.params(**{**entry.paper, **(entry.quick if quick else {})})
        found, result = store.get_store().peek(entry.run, params)
        if not found:
            st.info("This reproduction's figures are in the folder of `ikviz reproduce claims --full` "
                    f"(`{name}.html`): its numbers above were read from there.")
            return
        for i, fig in enumerate(entry.figures(result)):
            figures.figure(fig, f"claims-{name}-{i}", source=(entry.run, params))


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
    "whether a number is the quick size or the full (paper) size; *its result* opens the very result the number "
    "comes from, at the row's settings.",
    figures=False,
)

detail = st.query_params.get(claims.REPRODUCTION_KEY)
if detail:
    one_reproduction(detail, st.query_params.get(claims.SIZE_KEY, "quick") != "full")
    st.page_link("views/claims.py", label="Every claim", icon=":material/arrow_back:")
    st.stop()

with st.sidebar:
    st.header("Claims")
    paper = ui.control(st.radio, "paper", "paper", "all", options=list(PAPERS), format_func=PAPERS.get)

names = [n for n in claims.reproductions() if paper == "all" or any(c.paper == paper for c in claims.claims(n))]
s = store.get_store()
done = {n: held_rows(n) for n in names}
# every row at once: what is computed now, the rest as placeholders. The missing checks are prepared work: they run
# to their end whoever waits (a viewer who leaves and comes back finds them further on, never restarted); asking
# for them moves them ahead of other prepared work.
jobs = {n: s.prepare(claims.check_reproduction, n, True) for n in names if done[n] is None}
for n in jobs:   # asked for: ahead of other prepared work (a prepared job runs on whether anyone waits)
    s.release(s.submit(claims.check_reproduction, n, True))
unavailable = [cells(r) for r in claims.unavailable_rows(() if paper == "all" else (paper,))]


def lines_now() -> list[dict]:
    out = []
    for n in names:
        rows = done[n]
        out += ([cells(r) for r in rows if paper == "all" or r.paper == paper] if rows is not None
                else [line for line in waiting_rows(n, jobs.get(n)) if paper == "all" or line["paper"] == paper])
    return out + unavailable


@st.fragment(run_every=2.0 if jobs else None)
def table() -> None:
    """The table as it stands; while checks run, redrawn every 2 s without rerunning the page (the script ends)."""
    for n, job in jobs.items():
        if done[n] is None and job.done():
            with ui.guarded(f"the {n} reproduction"):
                done[n] = job.result()
            if done[n] is None:   # failed: said above; its rows stay as they were
                done[n] = []
    counts_box, table_box = st.empty(), st.empty()
    show(table_box, lines_now(), counts_box)
    if jobs and all(done[n] is not None for n in names):
        st.rerun()   # all in: the whole page once more, with nothing left to poll


# what finishes within a moment is drawn with the first table, not a second later
_soon = time.monotonic() + 2.0
for job in jobs.values():
    job.wait(max(0.0, _soon - time.monotonic()))
table()

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

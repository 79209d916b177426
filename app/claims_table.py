"""The Claims page's table: every claim's row at once, filled in as its reproduction's check finishes.

Rows already computed are drawn at once (full size first: ``ikviz reproduce claims --full``'s results, see
``claims.stored_rows``, or a full-size check the store holds); the others are checks the store runs where they
slow no viewer of another page down (:meth:`ResultsStore.offload`: a low-priority process of their own that writes
into the store's folder): they run to their end whoever waits, so a viewer who leaves and comes back finds them
finished or further on, never started again. The page's script ends at once, every row drawn (those still
computing say so); a fragment redraws the table every 2 s while checks run.
"""

import streamlit as st

import figures
import store
import ui
from ikviz import claims, reproduce

#: a pale background per verdict, so the table reads at a glance (text stays the verdict itself)
SHADE = {"holds": "#d9f2d9", "holds, smaller": "#fff2cc", "protocol unspecified": "#dde7f7",
         "too close to call on this machine": "#ffe5cc",
         "does not reproduce": "#f8d7d7", "data not available here": "#eeeeee"}
#: the verdict cell of a row whose reproduction is still running
COMPUTING = "computing…"
#: the table's columns, the verdict and the two numbers first
COLUMNS = ("paper", "where", "verdict", "paper's number", "ikviz", "why", "data", "size", "settings",
           "shown, not counted", "what explains a difference", "its result", "explore", "the paper says")


def held_rows(name: str) -> list | None:
    """The rows of reproduction ``name`` already computed, full size first; None when none is."""
    stored = getattr(claims, "stored_rows", None)   # paper-size results (claims.full_results_dir)
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


def live(names: list[str], paper: str) -> dict:
    """Draw the rows of reproductions ``names`` (of ``paper``, or "all"), filling in as checks finish.

    Returns each reproduction's rows held so far (None while its check runs).
    """
    s = store.get_store()
    done = {n: held_rows(n) for n in names}
    # the checks not held yet run to their end whoever waits, where they slow no viewer of another page down
    # (a low-priority process of their own when the store has a folder: ResultsStore.offload)
    jobs = {n: s.offload(claims.check_reproduction, n, True) for n in names if done[n] is None}
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
        """The table as it stands; while checks run, redrawn every 2 s without rerunning the page."""
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

    table()   # at once: a row still computing says so, and the fragment fills it in
    return done

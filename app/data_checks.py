"""The checks of the *Your data* page: each runs on demand; once run, it follows the settings (recomputed at once
when quick, with a re-run button when not) and the session remembers what it showed, for the report."""

import time

import streamlit as st

import figures
import store
import ui
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots


def _compute_check(name: str, params: exp.CheckParams, rows: int):
    """Run check ``name`` (through the store) and remember it, with its time, for this session."""
    start = time.perf_counter()
    res = store.compute(exp.check_run(name), params)
    st.session_state.setdefault("yd_runs", {})[name] = {"params": params, "rows": rows,
                                                       "seconds": time.perf_counter() - start}
    return res


def show(name: str, res, params: exp.CheckParams | None = None) -> None:
    """Check ``name``'s figures, tables and notes; ``params`` gives its figures a Python snippet (bundled data)."""
    parts = plots.check_parts(name, res)
    # an uploaded file lives only in this session: a snippet could not load it elsewhere
    source = ((exp.check_run(name), params)
              if params is not None and params.source.kind == "bundled" else None)
    for i, fig in enumerate(parts["figures"]):
        figures.figure(fig, f"fig_{name}_{i}", source=source)
    for table in parts["tables"]:
        st.dataframe(table, hide_index=True)
    for text in parts["text"]:
        if name == "neighbours":
            st.markdown(text)
        else:
            st.caption(text)


def section(number: int, name: str, params: exp.CheckParams, rows: int, has_classes: bool):
    """One check: its result for these settings if held; else run it (button), recompute it at once when
    cheap, or show the last result labelled stale with a re-run button. Returns ``(params, result)`` shown."""
    check = exp.CHECKS[name]
    st.subheader(f"{number} · {check.title}")
    if not exp.applicable(name, has_classes):
        st.info(check.without_classes)
        return None
    run, held = exp.check_run(name), store.get_store()
    runs = st.session_state.setdefault("yd_runs", {})
    last = runs.get(name)
    with ui.guarded(check.what):
        found, res = held.peek(run, params)
        step, estimate = exp.check_step(name, found, last, params, rows)
        if step == "show":
            if last is None or last["params"] != params:
                runs[name] = {"params": params, "rows": rows, "seconds": None}
            show(name, res, params)
            return params, res
        if step == "button":
            asked = st.button(check.button, key=f"btn_{name}", help=check.help)
        else:
            asked = step == "auto" or st.button(f"Re-run with the new settings (about {estimate:,.0f} s)",
                                                key=f"rerun_{name}", type="primary", help=check.help)
        if asked:
            res = _compute_check(name, params, rows)
            show(name, res, params)
            return params, res
        if step == "ask":
            old_found, old = held.peek(run, last["params"])
            st.warning(plots.stale_text(last["params"], params, old_found))
            if old_found:
                show(name, old, last["params"])
                return last["params"], old
    return None

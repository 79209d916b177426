"""The upload section of the *Your data* page: the file kept in this session's memory, how it was read (one
store call, memory only), the sheet, the missing values, the label (with the reason for the guess) and every
column's role. Names and values from the file are shown as literal text (never as Markdown)."""

import streamlit as st

import store
import ui
from ikviz.data import upload
from ikviz.experiments import your_data as exp
from ikviz.html import literal_markdown as literal
from ikviz.plots import your_data as plots

MISSING_LABELS = {"median": "impute: median (SimpleImputer)", "most_frequent": "impute: most frequent value",
                  "drop": "drop rows with missing values", "error": "refuse (say which lines)"}
DEFAULTS = upload.UPLOAD_DEFAULTS   # the column choices' defaults, which ikviz check shares
MANY_COLUMNS = 60   # above this, plain numeric features are chosen in one list instead of one box each


def keep_upload() -> None:
    """Keep the uploaded file in this session (its bytes, in memory only)."""
    file = st.session_state.get("uploader")
    if file is None:
        for key in ("upload_bytes", "upload_name", "upload_file"):
            st.session_state.pop(key, None)
    else:
        st.session_state["upload_bytes"] = file.getvalue()
        st.session_state["upload_name"] = file.name


def current_file() -> exp.FileBytes | None:
    """The uploaded file as :class:`FileBytes`, fingerprinted once per upload, not on every rerun."""
    raw = st.session_state.get("upload_bytes")
    if raw is None:
        return None
    held = st.session_state.get("upload_file")
    name = st.session_state.get("upload_name", "") or "upload"
    if held is None or held.raw is not raw and held.raw != raw or held.name != name:
        held = st.session_state["upload_file"] = exp.FileBytes(raw, name)
    return held


def _pick_label(role_key: str, label_key: str, column: str, default: str) -> None:
    """A column's role set to 'use as label': it becomes the label column; its own choice goes back to default."""
    if st.session_state.get(role_key) == "label":
        st.session_state[label_key] = column
        st.session_state[role_key] = default


def _roles(info, label: str | None, fp: str, label_key: str) -> dict:
    """A role for every column but the label (a list for plain numeric features of a wide file)."""
    roles, shown = {}, upload.role_columns(info.columns, label)
    plain = [c for c in shown if c.kind in ("numeric", "integer") and c.role == "feature"]
    if len(shown) > MANY_COLUMNS:
        ignored = st.multiselect("numeric columns to ignore", [c.name for c in plain], key=f"yd_ignore_{fp}")
        roles.update({name: "ignore" for name in ignored})
        shown = [c for c in shown if c not in plain]
    if not shown:
        return roles
    st.markdown("**Each column's role** (ignore, feature, one-hot, or use as label):")
    grid = st.columns(min(3, len(shown)))
    for i, col in enumerate(shown):
        role_key, options = f"yd_role_{fp}_{i}", upload.role_options(col.kind)
        default = upload.initial_role(col, label)
        if st.session_state.get(role_key) not in options:
            st.session_state[role_key] = default
        roles[col.name] = grid[i % len(grid)].selectbox(
            f"{literal(col.name)} ({col.kind}, {col.n_unique:,} values)", options, key=role_key,
            format_func=upload.ROLE_LABELS.get, on_change=_pick_label, args=(role_key, label_key, col.name, default),
            help="ignore: left out; feature: used as numbers; encode: one column per value (one-hot); "
                 "use as label: the class (or numbers to predict).")
    return roles


def source():
    """The upload section: returns the source (an ``upload`` :class:`~ikviz.data.Data`; None before a file is
    uploaded) and the notes already shown."""
    st.file_uploader("CSV/TSV (header row), Excel (.xlsx), Parquet or LIBSVM/svmlight file", key="uploader",
                     on_change=keep_upload, type=["csv", "txt", "tsv", "data", "svm", "libsvm", "svmlight", "xlsx",
                                                  "parquet", "pq"])
    file = current_file()
    if file is None:
        st.info("Upload a file to start, or switch to a bundled dataset in the sidebar. The file stays in this "
                "session; it and everything computed from it are held in the server's memory only, never written "
                "to disk, and are dropped when newer results need the room or the server restarts.")
        return None, []
    st.caption(literal(plots.file_text(file)) + " · held in memory only, never written to disk.")
    fp = file.fingerprint[:16]
    left, right = st.columns(2)
    missing = left.selectbox("missing values", list(MISSING_LABELS), key=f"yd_missing_{fp}",
                             index=list(MISSING_LABELS).index(DEFAULTS["missing"]), format_func=MISSING_LABELS.get)
    indicator = right.checkbox("add a 0/1 column per imputed feature", value=DEFAULTS["indicator"],
                               key=f"yd_indicator_{fp}", disabled=missing not in ("median", "most_frequent"))
    sheet = st.session_state.get(f"yd_sheet_{fp}")
    info = store.compute(exp.inspect_upload, file, "error" if missing == "error" else "drop", sheet, inline=True,
                         persist=False)   # once per file and choice, in memory only
    if len(info.sheets) > 1:
        st.selectbox("sheet", info.sheets, key=f"yd_sheet_{fp}", help="The workbook's sheet to read.")
    st.caption(f"{info.n_rows:,} rows, {len(info.columns)} columns ({info.format}).")
    for note in info.notes:
        st.info(literal(note))
    codes = True
    if any(c.code is not None for c in info.columns):
        codes = not st.checkbox("keep the missing-value codes as numbers", value=not DEFAULTS["codes"],
                                key=f"yd_codes_{fp}")
    names = [c.name for c in info.columns]
    label_key = f"yd_label_{fp}"
    if label_key not in st.session_state or st.session_state[label_key] not in ["(none)"] + names:
        guess = info.label_guess   # LIBSVM: always its label column, even with a single class
        st.session_state[label_key] = guess if guess in names else "(none)"
    choice = st.selectbox("label column", ["(none)"] + names, key=label_key,
                          help="The class of each row, or the numbers to predict (regression), if there is one.")
    st.caption(literal("Guess: " + info.label_reason) if info.label_reason else "")
    label = None if choice == "(none)" else choice
    roles = _roles(info, label, fp, label_key)
    with st.expander(f"Columns ({len(names)}) and a preview of the first rows", expanded=not ui.presenting()):
        st.dataframe(plots.column_table(info, label, roles), hide_index=True)
        st.dataframe(info.preview, hide_index=True)
    src = exp.upload_data(file, label=label, missing=missing, roles=tuple(sorted(roles.items())), sheet=sheet,
                          indicator=indicator, codes=codes)
    return src, list(info.notes)

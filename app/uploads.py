"""The upload flow of the *Your data* page: the file kept in the session, how it was read, its label and the
role of each column that is not a numeric feature."""

import streamlit as st

import store
import ui
from ikviz.data import upload
from ikviz.experiments import your_data as exp
from ikviz.plots import your_data as plots


def keep_upload() -> None:
    """Keep the uploaded file in the session (its bytes and SHA-256, computed once per upload)."""
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


def source() -> tuple[exp.Source | None, list[str]]:
    """The upload flow: the file, how it was read, a preview, the label and a role for each text column.

    Returns the source and the notes on the file already shown (not repeated under the summary)."""
    st.file_uploader("CSV/TSV (header row), Excel (.xlsx), Parquet or LIBSVM/svmlight file", key="uploader",
                     on_change=keep_upload, type=["csv", "txt", "tsv", "data", "svm", "libsvm", "svmlight", "xlsx",
                                                  "parquet", "pq"])
    file = current_file()
    if file is None:
        st.info("Upload a file to start, or switch to a bundled dataset in the sidebar.")
        return None, []
    st.caption(plots.file_text(file))
    fp = file.fingerprint[:16]
    # before the file is read: a LIBSVM file with nan is refused by the reading itself, and the message points here
    drop = st.checkbox("drop rows with missing values", value=False, key=f"yd_drop_{fp}")
    info = store.compute(exp.inspect_upload, file, "drop" if drop else "error",
                         inline=True)  # once per file and choice, shared by every rerun
    st.caption(f"{info.n_rows:,} rows, {len(info.columns)} columns ({info.format}).")
    for note in info.notes:
        st.info(note)
    names = [c.name for c in info.columns]
    label_key = f"yd_label_{fp}"
    if label_key not in st.session_state or st.session_state[label_key] not in ["(none)"] + names:
        guess = info.label_guess   # LIBSVM: always its label column, even with a single class
        st.session_state[label_key] = guess if guess in names else "(none)"
    choice = st.selectbox("label column", ["(none)"] + names, key=label_key,
                          help="The column holding the class of each row, if there is one (guessed from its "
                               "name and values; pick '(none)' for no classes).")
    label = None if choice == "(none)" else choice
    roles, shown = {}, upload.role_columns(info.columns, label)
    if shown:
        st.markdown("**Columns that are not numeric features**: choose what each is for.")
        grid = st.columns(min(3, len(shown)))
        for i, col in enumerate(shown):
            role_key, default, options = f"yd_role_{fp}_{i}", upload.initial_role(col), upload.role_options(col.kind)
            if st.session_state.get(role_key) not in options:
                st.session_state[role_key] = default
            roles[col.name] = grid[i % len(grid)].selectbox(
                f"{col.name} ({col.kind}, {col.n_unique:,} values)", options, key=role_key,
                format_func=upload.ROLE_LABELS.get, on_change=_pick_label,
                args=(role_key, label_key, col.name, default),
                help="ignore: left out; encode: one column per category (one-hot); use as label: the class column.")
    with st.expander(f"Columns ({len(names)}) and a preview of the first rows", expanded=not ui.presenting()):
        st.dataframe(plots.column_table(info, label, roles), hide_index=True)
        st.dataframe(info.preview, hide_index=True)
    return exp.Source("upload", file.name, file, label, drop, tuple(sorted(roles.items()))), list(info.notes)

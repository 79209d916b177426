"""The floor of ``app_rerun.py``: a Streamlit page with one small Plotly figure and one slider, no ikviz.

What any Streamlit + Plotly page costs in the same browser on the same machine;
ikviz's pages are measured against it (``python benchmarks/app_rerun.py --floor``).
"""

import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="floor", layout="wide")
st.title("Floor: one small Plotly figure")
x = st.slider("x", 0.0, 1.0, 0.5, 0.05, key="_w_x")
st.plotly_chart(go.Figure(go.Scatter(x=[0, x, 1], y=[0, 1, 0]), layout={"height": 360}), width="stretch")

"""Plot builders: one module per topic, each turning an experiment result into Plotly figures."""

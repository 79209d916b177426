"""Experiments: one module per topic, each a ``Params`` dataclass and a pure ``run(params) -> Result``."""

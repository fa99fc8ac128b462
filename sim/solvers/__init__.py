"""The designer's solvers on top of the experiments: tune, train, skill, deckbuild, balance,
lint and the notebook workbench."""

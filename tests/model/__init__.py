"""Tests of the model: case files, validation, card data, the recogniser and vocabulary (model/)."""

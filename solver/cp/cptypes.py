"""OR-Tools' own types under the CP wing's names, for type checking only (as cp_model's samples
annotate: ``CpModel``, ``IntVar``, ``LinearExprT``, ``LiteralT``). OR-Tools itself is loaded
lazily, when a model is built (solver.cp.search), so importing the CP wing stays cheap for
``--help`` and ``validate``; these names exist only for the type checker.

- :data:`Model`: a ``cp_model.CpModel``;
- :data:`Var`: an ``IntVar`` (a Boolean variable is one too);
- :data:`Expr`: an amount in the model, a linear expression, a variable or a constant
  (``LinearExprT``, its Python ints): what the rules' constraint forms (solver.rules) take and give;
- :data:`Lit`: a literal (``BoolVarT``), or a Python bool where the rules fold it to a constant;
- :data:`Array`, :data:`Mask`: the CP tables' rows as numpy arrays of int64, and boolean masks;
- :data:`Solver`, :data:`Solution`: a ``CpSolver``, and what a solution is read from (it, or a
  ``CpSolverSolutionCallback``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np
    import numpy.typing as npt
    from ortools.sat.python import cp_model

    Model: TypeAlias = cp_model.CpModel
    Var: TypeAlias = cp_model.IntVar
    # (``LinearExprT`` and ``LiteralT`` without the numpy integers the model never holds)
    Expr: TypeAlias = cp_model.LinearExpr | cp_model.IntVar | int
    Lit: TypeAlias = cp_model.BoolVarT | bool
    Solver: TypeAlias = cp_model.CpSolver
    Status: TypeAlias = cp_model.CpSolverStatus
    # what a solution is read from: a solver after a solve, or a solution callback during one
    # the CP tables' rows (solver.cp.tables, solver.cp.sums): a 2-D array of int64, and masks
    Array: TypeAlias = npt.NDArray[np.int64]
    Mask: TypeAlias = npt.NDArray[np.bool_]
    Solution: TypeAlias = cp_model.CpSolver | cp_model.CpSolverSolutionCallback

__all__: list[str] = []

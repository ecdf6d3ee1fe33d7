//! The arranging solver.

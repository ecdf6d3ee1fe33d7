//! Every split of 13 cards into top, middle and bottom.

//! Conversion between the two versions (filled in below).

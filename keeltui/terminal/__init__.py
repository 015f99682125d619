"""What keeltui sends to the terminal beyond Textual's public API (one seam module)."""

"""«Что? Где? Когда?» open tournament (RULES.md CHGK-1.1 … CHGK-4.7)."""

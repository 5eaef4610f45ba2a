entry entropic-bound-paper-2026-12 Wyj5quIZcXKjYxkfjZseKyeZKbG603FhjaalkJf9x+jblNuZFIK+w+GQvaj0HG2+BNEn0vSxv3Z86cXr7wQAAg==

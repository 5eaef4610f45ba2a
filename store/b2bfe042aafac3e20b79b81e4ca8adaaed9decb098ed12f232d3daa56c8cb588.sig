entry entropic-bound-paper-2026-12 lA65eFxG7wq4dCulZlDYGhFn/9lhYUeBYFxj9t8+thIPv81gj4EjYqkQxlBn/pXat1VSqJ9EmzuuJ2xDHb/yDQ==

alias entropic-bound-2026-12-07-session 5r+uka1yShAIHLuNGmvz9q+iYx2P8QUOCQWlfkhIUjldiFIL7soLWieXPyX8L2Ko1BiobVymqOPw+gz7xHp+Cw==

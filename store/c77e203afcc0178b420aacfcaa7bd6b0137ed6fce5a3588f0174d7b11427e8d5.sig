alias entropic-bound-2026-12-07-session wFEdJcq91T4eRIc0bFNYiybg+GsvHxFJIk+8ZI5qFrETjVY/oWEblG5/WjM6Nbon1iIhy22bjIa9VBqvuPhGBA==

alias entropic-bound-paper-2026-12 ijGuC7vOPQWyTWpbx/rIqz/4ZBNo1pQYB71+Yk0udCh5O9Du/X0wILIBT8lgNZ1QcOgQZ8LTNjf5iL0coZ2tAw==

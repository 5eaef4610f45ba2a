alias entropic-bound-2026-12-07-session BZol+oW/SaSqQKEg/Hsfoa6+iyZQhnAUCPjvzhyPcokQe6ev9ttPOdLkLgZCKwxMAsamWjcGfa+dY2/gr73dAg==

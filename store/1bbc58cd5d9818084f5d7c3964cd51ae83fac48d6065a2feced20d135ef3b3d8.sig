alias entropic-bound-paper-2026-12 qeO0y+z0sOFzXX+iMy1S/8VCyl60cJ04GMfjG5EJl5+dBziPI1A5UTeOOm6IiXxjzALvzG1Hk5EgwVHisGneAw==

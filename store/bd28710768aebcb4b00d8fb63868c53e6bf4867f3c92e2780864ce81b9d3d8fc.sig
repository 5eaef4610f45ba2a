alias entropic-bound-2026-12-07-session Myagy3f2QtqWUuOznIutrFwnx+UIaCiU2XMDUh0KE/G6Yl/qrZEkTBSHTJFJJc/8jmehB9PyULtSh72F+699Cw==

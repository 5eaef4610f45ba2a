alias entropic-bound-2026-12-07-session 5AGTkhY1cEB0PwXiLVxC5hYBTNQ7Urez+wGrVoAFHIZPODGdNsjJ/sp0aTRLhzmZlV+UQRec9NODI+o+61RJDA==

alias entropic-bound-paper-2026-12 6hafVYXd7DGQUWtyPFKn5Ms+HpoSJiEjWFRvXtBpA/jXUDdDVx59tNvm2vUUuEb+OTwN/RN3nVVe+H0TNwc0Aw==

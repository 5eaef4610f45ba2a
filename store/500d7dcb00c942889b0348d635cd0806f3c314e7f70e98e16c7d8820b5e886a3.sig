alias entropic-bound-paper-2026-12 VXbUxmH//Gck+qeDojyD9N4I31qWLkJ5irZhpbgh/8eKEIU1MHCJ9+aZUeQarvh89ESECpRp8PG5iSOwEXNBDg==

alias entropic-bound-2026-12-07-session eW21z/RfzEUdD++hKLGoGvffAZzm7xs9JQcUitiQzPanESX8qcbpsMuF5QqW9m4xPnX7Nqh5skw+JAVhiy1KDA==

alias entropic-bound-2026-12-07-session eZiHktdQinnESSMNsYW+PGUQ/2prC0drDXwdY3bKFkJt3d3Gh2Lbcu/K+UBUXO1ZsfDoQN/qsVQ23lHIuEuQAQ==

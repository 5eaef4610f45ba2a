alias entropic-bound-2026-12-07-session MOmUHpLx0as82qjVkn2+BadbSQFJJUPIgRhE+FOMwVVvRZgERVTWQUn/eUUS+jwv1WiT+MQS4mDsN47f8EfVBg==

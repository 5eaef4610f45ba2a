entry entropic-bound-paper-2026-12 vx/QlkdUuL/yt/ZR2CLw3Kjr53h4BDmnENvSeZ2S0GNGZB6+q0oAKgPECQbwSzra3bfC2faVNqFhdJHxAv8dAQ==

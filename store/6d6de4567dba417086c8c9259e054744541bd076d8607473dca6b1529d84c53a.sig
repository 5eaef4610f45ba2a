alias entropic-bound-2026-12-07-session Y3g/a8+voHviYDvq6NJcocngixSyvG+NgtcGYerfoDwSqv5xP1lkxiU1QQq/9IiIrdXr8i3o0fgBVPoVMrbHCA==

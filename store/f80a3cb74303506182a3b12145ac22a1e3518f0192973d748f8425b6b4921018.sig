entry entropic-bound-paper-2026-12 iABGwiai4hWhknWbn0wj0A99uCBZ9+pHG+Xhrd+5UuQYImp3pIa6oozo+LutdGoDFkN+ueYbuvHLb335xFZqDA==

realisation entropic-bound-2026-12-07-session 6bPnLks8Thk8bCNW/XP0cOFP0vWxLhoHwTNqzunoSfUT5ku3mhs/pYgj3pXIdivLC/WOjToTJCVl2KP+v1GqCA==

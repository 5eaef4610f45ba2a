alias entropic-bound-migration-2026-12-rules ly0/+7teErAzXd+IK9StQjlAIvU3twM3WP6bZkDg+fZ3MFl8/Pz86MnmchbtA3VvlELXOeFwrZtZlEpL0mt9BA==

"""Practice (``com.androidrl.practice``), an app of ours with a target to tap; ``app`` declares it."""

"""Notes (``com.androidrl.notes``), an app of ours for typing tasks; ``app`` declares it."""

"""The launcher (``com.android.launcher3``): the home screen; ``app`` declares it."""

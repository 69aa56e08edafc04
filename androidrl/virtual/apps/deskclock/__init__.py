"""Clock (``com.android.deskclock``, AOSP's DeskClock); ``app`` declares it, the tabs live beside it."""

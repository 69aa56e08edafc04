"""Phone (``com.android.dialer``): the tabs, the dialpad, the call log, the in-call screen; ``app`` declares it."""

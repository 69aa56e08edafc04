"""Settings (``com.android.settings``); ``app`` declares it and its pages."""

"""ExactCalculator (``com.android.calculator2``); ``app`` declares it, ``expression`` evaluates its formula."""

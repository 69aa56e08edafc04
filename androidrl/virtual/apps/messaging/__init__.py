"""Messaging (``com.android.messaging``).

``app`` declares it; ``conversation_list``, ``conversation`` and ``launch`` are its screens,
``provider`` its database, ``data`` what the screens read from the providers.
"""

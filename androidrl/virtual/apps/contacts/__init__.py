"""Contacts (``com.android.contacts``): the list, a contact's details, the editor; ``app`` declares it."""

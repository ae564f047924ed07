//! Conversation checker.

"""Munchkin Bites! (Munchkin Morde!): the table companion's rules engine."""

"""inspector.store"""

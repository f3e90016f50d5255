"""inspector.auth"""

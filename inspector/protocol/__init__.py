"""inspector.protocol"""

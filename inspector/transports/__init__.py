"""inspector.transports"""

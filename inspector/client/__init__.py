"""inspector.client"""

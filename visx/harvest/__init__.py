"""Every page of a list: scroll, "Load more", next links and virtualised lists (``RenderConfig.pages``)."""

from visx.harvest.run import Harvested, harvest

__all__ = ["Harvested", "harvest"]

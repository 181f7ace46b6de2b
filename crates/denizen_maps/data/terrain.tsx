<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="16" tileheight="16" tilecount="3" columns="3">
 <tile id="0" class="wall"/>
 <tile id="1" class="floor"/>
 <tile id="2" class="water"/>
</tileset>

-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
--
-- Host: 127.0.0.1    Database: xxl_job
-- ------------------------------------------------------
-- Server version	8.0.36
-- Test data written for Kairos' importer on xxl-job 2.4/3.x's schema (doc/db/tables_xxl_job.sql):
-- one job per value of every enum xxl-job stores, and the escapes mysqldump writes.

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;

--
-- Table structure for table `xxl_job_group`
--

DROP TABLE IF EXISTS `xxl_job_group`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE `xxl_job_group` (
  `id` int NOT NULL AUTO_INCREMENT,
  `app_name` varchar(64) NOT NULL COMMENT '执行器AppName',
  `title` varchar(12) NOT NULL COMMENT '执行器名称',
  `address_type` tinyint NOT NULL DEFAULT '0' COMMENT '执行器地址类型：0=自动注册、1=手动录入',
  `address_list` text COMMENT '执行器地址列表，多地址逗号分隔',
  `update_time` datetime DEFAULT NULL,
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `xxl_job_group`
--

LOCK TABLES `xxl_job_group` WRITE;
/*!40000 ALTER TABLE `xxl_job_group` DISABLE KEYS */;
INSERT INTO `xxl_job_group` VALUES (1,'billing-executor','账单执行器',0,'http://10.0.0.11:9999/,http://10.0.0.12:9999/','2026-11-20 10:31:50'),(2,'crawler-executor','爬虫',0,NULL,'2026-11-20 10:31:50'),(3,'ops-executor','运维; -- ops',1,'http://10.0.0.30:9999/','2026-11-20 10:31:50'),(4,'idle-executor','空闲',0,NULL,NULL);
/*!40000 ALTER TABLE `xxl_job_group` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `xxl_job_info`
--

DROP TABLE IF EXISTS `xxl_job_info`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
CREATE TABLE `xxl_job_info` (
  `id` int NOT NULL AUTO_INCREMENT,
  `job_group` int NOT NULL COMMENT '执行器主键ID',
  `job_desc` varchar(255) NOT NULL,
  `add_time` datetime DEFAULT NULL,
  `update_time` datetime DEFAULT NULL,
  `author` varchar(64) DEFAULT NULL COMMENT '作者',
  `alarm_email` varchar(255) DEFAULT NULL COMMENT '报警邮件',
  `schedule_type` varchar(50) NOT NULL DEFAULT 'NONE' COMMENT '调度类型',
  `schedule_conf` varchar(128) DEFAULT NULL COMMENT '调度配置，值含义取决于调度类型',
  `misfire_strategy` varchar(50) NOT NULL DEFAULT 'DO_NOTHING' COMMENT '调度过期策略',
  `executor_route_strategy` varchar(50) DEFAULT NULL COMMENT '执行器路由策略',
  `executor_handler` varchar(255) DEFAULT NULL COMMENT '执行器任务handler',
  `executor_param` varchar(512) DEFAULT NULL COMMENT '执行器任务参数',
  `executor_block_strategy` varchar(50) DEFAULT NULL COMMENT '阻塞处理策略',
  `executor_timeout` int NOT NULL DEFAULT '0' COMMENT '任务执行超时时间，单位秒',
  `executor_fail_retry_count` int NOT NULL DEFAULT '0' COMMENT '失败重试次数',
  `glue_type` varchar(50) NOT NULL COMMENT 'GLUE类型',
  `glue_source` mediumtext COMMENT 'GLUE源代码',
  `glue_remark` varchar(128) DEFAULT NULL COMMENT 'GLUE备注',
  `glue_updatetime` datetime DEFAULT NULL COMMENT 'GLUE更新时间',
  `child_jobid` varchar(255) DEFAULT NULL COMMENT '子任务ID，多个逗号分隔',
  `trigger_status` tinyint NOT NULL DEFAULT '0' COMMENT '调度状态：0-停止，1-运行',
  `trigger_last_time` bigint NOT NULL DEFAULT '0' COMMENT '上次调度时间',
  `trigger_next_time` bigint NOT NULL DEFAULT '0' COMMENT '下次调度时间',
  PRIMARY KEY (`id`)
) ENGINE=InnoDB AUTO_INCREMENT=21 DEFAULT CHARSET=utf8mb4;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table `xxl_job_info`
--

LOCK TABLES `xxl_job_info` WRITE;
/*!40000 ALTER TABLE `xxl_job_info` DISABLE KEYS */;
INSERT INTO `xxl_job_info` VALUES (1,1,'Nightly invoices','2026-01-03 22:21:31','2026-11-03 22:21:31','alice','billing-oncall@example.com,alice@example.com','CRON','0 0 2 ? * 1','DO_NOTHING','FIRST','invoiceJob','2026-11','SERIAL_EXECUTION',600,2,'BEAN','','GLUE代码初始化','2026-01-03 22:21:31','2,3',1,1763940000000,1764540000000),(2,1,'Report rollup','2026-01-03 22:21:31','2026-01-03 22:21:31','bob','','FIX_RATE','30','FIRE_ONCE_NOW','LAST','reportRollup','{\"region\":\"it\'s \\\\ here\",\"note\":\"a;b -- c /* d */\"}','DISCARD_LATER',0,0,'BEAN','','','2026-01-03 22:21:31','',1,0,0),(3,1,'Ad hoc export','2026-01-03 22:21:31','2026-01-03 22:21:31','bob',NULL,'NONE',NULL,'DO_NOTHING','ROUND','exportJob',NULL,'COVER_EARLY',0,0,'BEAN',NULL,NULL,NULL,NULL,0,0,0),(4,2,'Shard scan','2026-01-03 22:21:31','2026-01-03 22:21:31','carol',NULL,'CRON','0 */5 * * * ?','DO_NOTHING','SHARDING_BROADCAST','shardScan','C:\\data\\in\tline2\nline3','SERIAL_EXECUTION',60,1,'BEAN','','',NULL,'5',1,0,0),(5,2,'Office-hours ping','2026-01-03 22:21:31','2026-01-03 22:21:31','carol',NULL,'CRON','0 0/30 9-18 ? * MON-FRI','DO_NOTHING','RANDOM','ping','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'',1,0,0),(6,2,'Month end','2026-01-03 22:21:31','2026-01-03 22:21:31','dan',NULL,'CRON','0 15 10 L * ?','DO_NOTHING','CONSISTENT_HASH','monthEnd','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'',1,0,0),(7,2,'Mid-month weekday','2026-01-03 22:21:31','2026-01-03 22:21:31','dan',NULL,'CRON','0 0 12 15W * ?','FIRE_ONCE_NOW','LEAST_FREQUENTLY_USED','midMonth','','DISCARD_LATER',0,0,'BEAN','','',NULL,'',0,0,0),(8,2,'Third Friday','2026-01-03 22:21:31','2026-01-03 22:21:31','dan',NULL,'CRON','0 0 8 ? * 6#3','DO_NOTHING','LEAST_RECENTLY_USED','thirdFriday','','COVER_EARLY',0,0,'BEAN','','',NULL,'',1,0,0),(9,3,'New year 2099','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 0 1 1 ? 2099','DO_NOTHING','FAILOVER','newYear','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'',1,0,0),(10,3,'Hourly sweep','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'FIX_RATE','3600','DO_NOTHING','BUSYOVER','sweep','','SERIAL_EXECUTION',300,3,'BEAN','','',NULL,'',1,0,0);
INSERT INTO `xxl_job_info` VALUES (11,3,'Groovy cleanup','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 3 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_GROOVY','package com.xxl.job.service.handler;\n\nimport com.xxl.job.core.handler.IJobHandler;\n\npublic class DemoGlueJobHandler extends IJobHandler {\n\n	@Override\n	public void execute() throws Exception {\n		XxlJobHelper.log(\"it\'s done; -- really\");\n	}\n\n}\n','GLUE代码初始化','2026-01-03 22:21:31','',1,0,0),(12,3,'Shell backup','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 30 1 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_SHELL','#!/bin/bash\necho \"xxl-job: backup\"\nexit 0\n','v1','2026-01-03 22:21:31','',1,0,0),(13,3,'Python stats','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 4 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_PYTHON','#!/usr/bin/python3\nprint(\'stats\')\n','v1','2026-01-03 22:21:31','',0,0,0),(14,3,'Python2 legacy','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 5 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_PYTHON2','#!/usr/bin/python2\nprint \"legacy\"\n','v1','2026-01-03 22:21:31','',0,0,0),(15,3,'Node report','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 6 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_NODEJS','#!/usr/bin/env node\nconsole.log(\"report\");\n','v1','2026-01-03 22:21:31','',0,0,0),(16,3,'PowerShell rotate','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 7 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_POWERSHELL','Write-Host \"rotate\"\n','v1','2026-01-03 22:21:31','',0,0,0),(17,3,'PHP cache','2026-01-03 22:21:31','2026-01-03 22:21:31','erin',NULL,'CRON','0 0 8 * * ?','DO_NOTHING','FIRST','','','SERIAL_EXECUTION',0,0,'GLUE_PHP','<?php\necho \'cache\';\n','v1','2026-01-03 22:21:31','',0,0,0),(18,1,'Typo in cron','2026-01-03 22:21:31','2026-01-03 22:21:31','alice',NULL,'CRON','0 0 25 * * ?','DO_NOTHING','FIRST','typoJob','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'',0,0,0),(19,99,'Orphan of a deleted group','2026-01-03 22:21:31','2026-01-03 22:21:31','alice',NULL,'CRON','0 0 1 * * ?','DO_NOTHING','FIRST','orphanJob','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'',1,0,0),(20,1,'Fan-out with ''odd'' children','2026-01-03 22:21:31','2026-01-03 22:21:31','frank','frank@example.com','CRON','0 0 22 * * ?','DO_NOTHING','ROUND','fanOut','','SERIAL_EXECUTION',0,0,'BEAN','','',NULL,'11,1, 20,404',1,0,0);
/*!40000 ALTER TABLE `xxl_job_info` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table `xxl_job_log`
--

DROP TABLE IF EXISTS `xxl_job_log`;
CREATE TABLE `xxl_job_log` (
  `id` bigint NOT NULL AUTO_INCREMENT,
  `job_group` int NOT NULL COMMENT '执行器主键ID',
  `job_id` int NOT NULL COMMENT '任务，主键ID',
  `executor_address` varchar(255) DEFAULT NULL,
  `executor_handler` varchar(255) DEFAULT NULL,
  `executor_param` varchar(512) DEFAULT NULL,
  `executor_sharding_param` varchar(20) DEFAULT NULL,
  `executor_fail_retry_count` int NOT NULL DEFAULT '0',
  `trigger_time` datetime DEFAULT NULL,
  `trigger_code` int NOT NULL,
  `trigger_msg` text,
  `handle_time` datetime DEFAULT NULL,
  `handle_code` int NOT NULL,
  `handle_msg` text,
  `alarm_status` tinyint NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  KEY `I_trigger_time` (`trigger_time`),
  KEY `I_handle_code` (`handle_code`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4;

LOCK TABLES `xxl_job_log` WRITE;
INSERT INTO `xxl_job_log` VALUES (1,1,1,'http://10.0.0.11:9999/','invoiceJob','2026-11',NULL,2,'2026-11-23 02:00:00',200,'任务触发类型：Cron触发<br>调度机器：10.0.0.1<br>执行器-地址列表：[http://10.0.0.11:9999/]; xxl_job_info',NULL,0,NULL,0),(2,1,1,'http://10.0.0.11:9999/','invoiceJob','2026-11',NULL,2,'2026-11-24 02:00:00',500,'failed: \'); DROP TABLE xxl_job_info; --','2026-11-24 02:00:01',500,'boom',3);
UNLOCK TABLES;

--
-- Table structure for table `xxl_job_lock`
--

DROP TABLE IF EXISTS `xxl_job_lock`;
CREATE TABLE `xxl_job_lock` (
  `lock_name` varchar(50) NOT NULL COMMENT '锁名称',
  PRIMARY KEY (`lock_name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
INSERT INTO `xxl_job_lock` VALUES ('schedule_lock');

/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;
/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;

-- Dump completed on 2026-11-25 10:00:00
